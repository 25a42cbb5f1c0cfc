import { describe, expect, it } from 'vitest';
import type { QuestionSnapshotJson } from '../../../src/domain/shared/json-types.ts';
import { validateAnswers, type QuestionResponse, type ValidatedAnswers } from '../../../src/domain/questions/answers.ts';
import { codeAndField } from '../../support/domain-error.ts';
import { pick, question, text } from '../../support/questions.ts';

const P = 'data.0.participants';
/** The ids of the stored answers of the purchaser and each participant. */
const shownIds = (result: ValidatedAnswers) => ({
  purchaser: result.purchaser.map((a) => a.question.customQuestionId),
  participants: result.participants.map((list) => list.map((a) => a.question.customQuestionId)),
});

// A participant is asked about diving and swimming; follow-ups depend on those answers.
const diver = question('q-diver', 'single_select');
const swim = question('q-swim', 'multiple_select', {
  options: [
    ['s-pool', 'Pool'],
    ['s-sea', 'Sea'],
  ],
});
const anyCert = question('q-cert', 'input', {
  required: true,
  when: [
    ['q-diver', 'k-yes'],
    ['q-swim', 's-sea'],
  ],
  match: 'any',
});
const allDepth = question('q-depth', 'input', {
  required: true,
  when: [
    ['q-diver', 'k-yes'],
    ['q-swim', 's-sea'],
  ],
  match: 'all',
});

function participantRun(questions: QuestionSnapshotJson[], responses: QuestionResponse[]) {
  return validateAnswers({ questions, participants: [{ responses }], fieldPrefix: 'data.0' });
}

describe('validateAnswers: conditional questions', () => {
  it.each<[string, QuestionSnapshotJson[], QuestionResponse[], string[]]>([
    [
      'any: the first condition met',
      [diver, swim, anyCert],
      [pick('q-diver', 'k-yes'), text('q-cert', 'PADI')],
      ['q-diver', 'q-swim', 'q-cert'],
    ],
    [
      'any: the second condition met',
      [diver, swim, anyCert],
      [pick('q-swim', 's-pool', 's-sea'), text('q-cert', 'PADI')],
      ['q-diver', 'q-swim', 'q-cert'],
    ],
    [
      'any: no condition met, the required follow-up is hidden',
      [diver, swim, anyCert],
      [pick('q-diver', 'k-no'), pick('q-swim', 's-pool')],
      ['q-diver', 'q-swim'],
    ],
    ['any: parents unanswered', [diver, swim, anyCert], [], ['q-diver', 'q-swim']],
    [
      'all: every condition met',
      [diver, swim, allDepth],
      [pick('q-diver', 'k-yes'), pick('q-swim', 's-sea'), text('q-depth', '18m')],
      ['q-diver', 'q-swim', 'q-depth'],
    ],
    ['all: one condition unmet', [diver, swim, allDepth], [pick('q-diver', 'k-yes'), pick('q-swim', 's-pool')], ['q-diver', 'q-swim']],
    [
      'an answer to a hidden question is dropped',
      [diver, swim, allDepth],
      [pick('q-diver', 'k-no'), text('q-depth', '18m')],
      ['q-diver', 'q-swim'],
    ],
    [
      'an invalid answer to a hidden question is dropped unchecked',
      [diver, swim, anyCert],
      [pick('q-diver', 'k-no'), text('q-cert', 'a', 'b')],
      ['q-diver', 'q-swim'],
    ],
    [
      'a condition on an inactive parent never matches',
      [question('q-diver', 'single_select', { active: false }), anyCert],
      [text('q-cert', 'PADI')],
      [],
    ],
    ['a condition on an unknown parent never matches', [anyCert], [], []],
    [
      'a chain: the grandchild is hidden with its parent',
      [
        diver,
        question('q-level', 'single_select', { when: [['q-diver', 'k-yes']] }),
        question('q-log', 'input', { required: true, when: [['q-level', 'k-yes']] }),
      ],
      [pick('q-diver', 'k-no'), pick('q-level', 'k-yes')],
      ['q-diver'],
    ],
    [
      'a chain: all met',
      [
        diver,
        question('q-level', 'single_select', { when: [['q-diver', 'k-yes']] }),
        question('q-log', 'input', { required: true, when: [['q-level', 'k-yes']] }),
      ],
      [pick('q-diver', 'k-yes'), pick('q-level', 'k-yes'), text('q-log', '40 dives')],
      ['q-diver', 'q-level', 'q-log'],
    ],
    [
      'conditions in a cycle never match',
      [question('q-a', 'single_select', { when: [['q-b', 'k-yes']] }), question('q-b', 'single_select', { when: [['q-a', 'k-yes']] })],
      [pick('q-a', 'k-yes'), pick('q-b', 'k-yes')],
      [],
    ],
  ])('%s', (_name, questions, responses, shown) => {
    expect(shownIds(participantRun(questions, responses)).participants).toEqual([shown]);
  });

  it('requires a shown conditional question', () => {
    expect(codeAndField(() => participantRun([diver, swim, anyCert], [pick('q-diver', 'k-yes')]))).toEqual({
      code: 'ANSWER_REQUIRED',
      field: `${P}.0.customQuestionResponses`,
    });
  });

  it('checks the answer of a shown conditional question', () => {
    expect(codeAndField(() => participantRun([diver, swim, anyCert], [pick('q-diver', 'k-yes'), text('q-cert', 'a', 'b')]))).toEqual({
      code: 'INVALID_ANSWER',
      field: `${P}.0.customQuestionResponses.1.answer`,
    });
  });

  it('stores null for a shown optional follow-up left unanswered', () => {
    const optional = question('q-note', 'textarea', { when: [['q-diver', 'k-yes']] });
    const result = participantRun([diver, optional], [pick('q-diver', 'k-yes')]);
    expect(result.participants[0]?.[1]).toEqual({ question: optional, answer: [{ value: null }] });
  });

  it("evaluates each participant's conditions against that participant's own answers", () => {
    const result = validateAnswers({
      questions: [diver, anyCert],
      participants: [
        { responses: [pick('q-diver', 'k-yes'), text('q-cert', 'PADI')] },
        { responses: [pick('q-diver', 'k-no'), text('q-cert', 'dropped')] },
      ],
      fieldPrefix: 'data.0',
    });
    expect(shownIds(result).participants).toEqual([['q-diver', 'q-cert'], ['q-diver']]);
  });

  it("does not take one participant's answers for another's: the second must answer its own follow-up", () => {
    const input = {
      questions: [diver, anyCert],
      participants: [{ responses: [pick('q-diver', 'k-no')] }, { responses: [pick('q-diver', 'k-yes')] }],
      fieldPrefix: 'data.0',
    };
    expect(codeAndField(() => validateAnswers(input))).toEqual({ code: 'ANSWER_REQUIRED', field: `${P}.1.customQuestionResponses` });
  });

  describe('across scopes', () => {
    const group = question('q-group', 'single_select', { scope: 'purchaser' });
    const groupName = question('q-group-name', 'input', { scope: 'purchaser', required: true, when: [['q-group', 'k-yes']] });
    const school = question('q-school', 'input', { scope: 'participant', required: true, when: [['q-group', 'k-yes']] });
    const byParticipant = question('q-invoice', 'input', { scope: 'purchaser', required: true, when: [['q-diver', 'k-yes']] });
    const questions = [group, groupName, school, diver, byParticipant];
    const run = (purchaserResponses: QuestionResponse[], participants: QuestionResponse[][]) =>
      validateAnswers({
        questions,
        purchaserResponses,
        participants: participants.map((responses) => ({ responses })),
        fieldPrefix: 'data.0',
      });

    it("shows purchaser follow-ups and participant questions that depend on the purchaser's answer", () => {
      const result = run(
        [pick('q-group', 'k-yes'), text('q-group-name', 'Class 4B')],
        [[text('q-school', 'Escola A'), pick('q-diver', 'k-yes')], [text('q-school', 'Escola B')]],
      );
      expect(shownIds(result)).toEqual({
        purchaser: ['q-group', 'q-group-name'],
        participants: [
          ['q-school', 'q-diver'],
          ['q-school', 'q-diver'],
        ],
      });
    });

    it('hides them when the purchaser answered otherwise', () => {
      const result = run([pick('q-group', 'k-no')], [[text('q-school', 'dropped')], []]);
      expect(shownIds(result)).toEqual({ purchaser: ['q-group'], participants: [['q-diver'], ['q-diver']] });
    });

    it('requires the participant follow-up of every participant when shown', () => {
      expect(codeAndField(() => run([pick('q-group', 'k-yes'), text('q-group-name', 'G')], [[text('q-school', 'A')], []]))).toEqual({
        code: 'ANSWER_REQUIRED',
        field: `${P}.1.customQuestionResponses`,
      });
    });

    it('never shows a purchaser question that depends on a participant question', () => {
      const result = run([], [[pick('q-diver', 'k-yes')]]);
      expect(shownIds(result).purchaser).toEqual(['q-group']);
    });

    it("uses the first participant's answers when that participant is the purchaser", () => {
      const result = validateAnswers({
        questions,
        purchaserIsFirstParticipant: true,
        participants: [
          { responses: [pick('q-group', 'k-yes'), text('q-group-name', 'G'), text('q-school', 'A')] },
          { responses: [text('q-school', 'B')] },
        ],
        fieldPrefix: 'data.0',
      });
      expect(shownIds(result)).toEqual({
        purchaser: ['q-group', 'q-group-name'],
        participants: [
          ['q-school', 'q-diver'],
          ['q-school', 'q-diver'],
        ],
      });
    });
  });
});
