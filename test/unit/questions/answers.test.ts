import { describe, expect, it } from 'vitest';
import type { QuestionSnapshotJson } from '../../../src/domain/shared/json-types.ts';
import { validateAnswers, type QuestionResponse, type ValidateAnswersInput } from '../../../src/domain/questions/answers.ts';
import type { QuestionSnapshot } from '../../../src/domain/questions/questions.ts';
import { codeAndField, domainErrorOf } from '../../support/domain-error.ts';
import { pick, question, text } from '../../support/questions.ts';

// The snapshots customQuestionsByExperience returns are what validateAnswers takes.
const fromQuestionsModule = (snapshot: QuestionSnapshot): QuestionSnapshotJson => snapshot;
void fromQuestionsModule;

const P = 'data.0.participants';
const one = (q: QuestionSnapshotJson, responses: QuestionResponse[]) =>
  validateAnswers({ questions: [q], participants: [{ responses }], fieldPrefix: 'data.0' }).participants[0]?.[0]?.answer;
const errorOne = (q: QuestionSnapshotJson, responses: QuestionResponse[]) =>
  codeAndField(() => validateAnswers({ questions: [q], participants: [{ responses }], fieldPrefix: 'data.0' }));

describe('validateAnswers: each field type', () => {
  const longText = (n: number) => 'x'.repeat(n);
  it.each<[string, QuestionSnapshotJson, QuestionResponse[], unknown]>([
    ['input, trimmed', question('q', 'input'), [text('q', '  Ana  ')], [{ value: 'Ana' }]],
    ['input of 500 characters', question('q', 'input'), [text('q', longText(500))], [{ value: longText(500) }]],
    ['textarea of 2000 characters', question('q', 'textarea'), [text('q', longText(2000))], [{ value: longText(2000) }]],
    ['input left blank (optional)', question('q', 'input'), [text('q', '   ')], [{ value: null }]],
    ['input with an empty answer list (optional)', question('q', 'input'), [{ questionId: 'q', answer: [] }], [{ value: null }]],
    ['input not sent (optional)', question('q', 'input'), [], [{ value: null }]],
    [
      'single select: the label comes from the question',
      question('q', 'single_select'),
      [pick('q', 'k-no')],
      [{ value: 'No', key: 'k-no' }],
    ],
    [
      'multiple select: several options, in the order sent',
      question('q', 'multiple_select'),
      [pick('q', 'k-maybe', 'k-yes')],
      [
        { value: 'Maybe', key: 'k-maybe' },
        { value: 'Yes', key: 'k-yes' },
      ],
    ],
    ['multiple select with nothing chosen (optional)', question('q', 'multiple_select'), [], [{ value: null }]],
    ['terms accepted', question('q', 'terms_and_conditions', { required: true }), [text('q', 'true')], [{ value: true }]],
    ['terms accepted, any case', question('q', 'terms_and_conditions'), [text('q', ' TRUE ')], [{ value: true }]],
    ['optional terms declined', question('q', 'terms_and_conditions'), [text('q', 'false')], [{ value: false }]],
    ['optional terms not sent', question('q', 'terms_and_conditions'), [], [{ value: null }]],
  ])('stores %s', (_name, q, responses, stored) => {
    expect(one(q, responses)).toEqual(stored);
  });

  it.each<[string, QuestionSnapshotJson, QuestionResponse[], string, string]>([
    [
      'input over 500 characters',
      question('q', 'input'),
      [text('q', longText(501))],
      'INVALID_ANSWER',
      `${P}.0.customQuestionResponses.0.answer.0.value`,
    ],
    [
      'textarea over 2000 characters',
      question('q', 'textarea'),
      [text('q', longText(2001))],
      'INVALID_ANSWER',
      `${P}.0.customQuestionResponses.0.answer.0.value`,
    ],
    ['input with two values', question('q', 'input'), [text('q', 'a', 'b')], 'INVALID_ANSWER', `${P}.0.customQuestionResponses.0.answer`],
    [
      'input with a key but no text',
      question('q', 'input'),
      [{ questionId: 'q', answer: [{ key: 'k' }] }],
      'INVALID_ANSWER',
      `${P}.0.customQuestionResponses.0.answer.0.value`,
    ],
    [
      'required input left blank',
      question('q', 'input', { required: true }),
      [text('q', ' ')],
      'ANSWER_REQUIRED',
      `${P}.0.customQuestionResponses`,
    ],
    ['required textarea not sent', question('q', 'textarea', { required: true }), [], 'ANSWER_REQUIRED', `${P}.0.customQuestionResponses`],
    [
      'single select with an unknown key',
      question('q', 'single_select'),
      [pick('q', 'k-other')],
      'INVALID_ANSWER',
      `${P}.0.customQuestionResponses.0.answer.0.key`,
    ],
    [
      'single select with a label but no key',
      question('q', 'single_select'),
      [text('q', 'Yes')],
      'INVALID_ANSWER',
      `${P}.0.customQuestionResponses.0.answer.0.key`,
    ],
    [
      'single select with two options',
      question('q', 'single_select'),
      [pick('q', 'k-yes', 'k-no')],
      'INVALID_ANSWER',
      `${P}.0.customQuestionResponses.0.answer`,
    ],
    [
      'multiple select with a repeated option',
      question('q', 'multiple_select'),
      [pick('q', 'k-yes', 'k-yes')],
      'INVALID_ANSWER',
      `${P}.0.customQuestionResponses.0.answer.1.key`,
    ],
    [
      'multiple select with a bad key among good ones',
      question('q', 'multiple_select'),
      [pick('q', 'k-yes', 'nope')],
      'INVALID_ANSWER',
      `${P}.0.customQuestionResponses.0.answer.1.key`,
    ],
    [
      'required multiple select with nothing chosen',
      question('q', 'multiple_select', { required: true }),
      [{ questionId: 'q', answer: [] }],
      'ANSWER_REQUIRED',
      `${P}.0.customQuestionResponses`,
    ],
    [
      'terms answered "yes"',
      question('q', 'terms_and_conditions'),
      [text('q', 'yes')],
      'INVALID_ANSWER',
      `${P}.0.customQuestionResponses.0.answer.0.value`,
    ],
    [
      'terms answered twice',
      question('q', 'terms_and_conditions'),
      [text('q', 'true', 'true')],
      'INVALID_ANSWER',
      `${P}.0.customQuestionResponses.0.answer`,
    ],
    [
      'required terms declined',
      question('q', 'terms_and_conditions', { required: true }),
      [text('q', 'false')],
      'ANSWER_REQUIRED',
      `${P}.0.customQuestionResponses`,
    ],
    [
      'required terms not sent',
      question('q', 'terms_and_conditions', { required: true }),
      [],
      'ANSWER_REQUIRED',
      `${P}.0.customQuestionResponses`,
    ],
  ])('refuses %s', (_name, q, responses, code, field) => {
    expect(errorOne(q, responses)).toEqual({ code, field });
  });

  it('names the missing question in ANSWER_REQUIRED details', () => {
    const error = domainErrorOf(() =>
      validateAnswers({ questions: [question('q-diet', 'input', { required: true })], participants: [{}, {}], fieldPrefix: 'data.2' }),
    );
    expect([error.code, error.message, error.details]).toEqual([
      'ANSWER_REQUIRED',
      'Question "Prompt of q-diet" must be answered',
      { field: 'data.2.participants.0.customQuestionResponses', questionId: 'q-diet', prompt: 'Prompt of q-diet' },
    ]);
  });
});

describe('validateAnswers: scopes', () => {
  const name = question('q-name', 'input', { scope: 'participant', required: true });
  const diet = question('q-diet', 'single_select', { scope: 'participant' });
  const company = question('q-company', 'input', { scope: 'purchaser', required: true });
  const terms = question('q-terms', 'terms_and_conditions', { scope: 'purchaser', required: true });
  const questions = [name, company, diet, terms];
  const purchaserOk = [text('q-company', 'Acme'), text('q-terms', 'true')];
  const run = (input: Partial<ValidateAnswersInput>) =>
    validateAnswers({ questions, purchaserResponses: purchaserOk, participants: [], fieldPrefix: 'data.0', ...input });

  it('answers purchaser questions once and participant questions per participant, in question order', () => {
    const result = run({
      participants: [{ responses: [pick('q-diet', 'k-yes'), text('q-name', 'Ana')] }, { responses: [text('q-name', 'Rui')] }],
    });
    expect(result.purchaser.map((a) => [a.question.customQuestionId, a.answer])).toEqual([
      ['q-company', [{ value: 'Acme' }]],
      ['q-terms', [{ value: true }]],
    ]);
    expect(result.participants.map((list) => list.map((a) => [a.question.customQuestionId, a.answer]))).toEqual([
      [
        ['q-name', [{ value: 'Ana' }]],
        ['q-diet', [{ value: 'Yes', key: 'k-yes' }]],
      ],
      [
        ['q-name', [{ value: 'Rui' }]],
        ['q-diet', [{ value: null }]],
      ],
    ]);
    expect(result.purchaser[0]?.question).toBe(company);
  });

  it('returns empty lists when the experience has no questions', () => {
    expect(validateAnswers({ questions: [], participants: [{}, { responses: [] }], fieldPrefix: 'data.0' })).toEqual({
      purchaser: [],
      participants: [[], []],
    });
  });

  const says = (...responses: QuestionResponse[]) => ({ responses });
  const Q = (index: number, entry: number) => `${P}.${index}.customQuestionResponses.${entry}.questionId`;
  const anAnswer = text('q-name', 'Ana');
  it.each<[string, Partial<ValidateAnswersInput>, string, string]>([
    ['an unknown question id', { participants: [says(anAnswer), says(anAnswer, text('q-nope', 'x'))] }, 'UNKNOWN_QUESTION', Q(1, 1)],
    ['a purchaser question in a participant list', { participants: [says(anAnswer, text('q-company', 'x'))] }, 'UNKNOWN_QUESTION', Q(0, 1)],
    [
      'a participant question in the purchaser list',
      { purchaserResponses: [...purchaserOk, text('q-name', 'x')], participants: [says(anAnswer)] },
      'UNKNOWN_QUESTION',
      'purchaser.customQuestionResponses.2.questionId',
    ],
    [
      'an inactive question',
      { questions: [...questions, question('q-old', 'input', { active: false })], participants: [says(anAnswer, text('q-old', 'x'))] },
      'UNKNOWN_QUESTION',
      Q(0, 1),
    ],
    ['a question answered twice by one participant', { participants: [says(anAnswer, text('q-name', 'B'))] }, 'VALIDATION_FAILED', Q(0, 1)],
    [
      'a required purchaser question missing',
      { purchaserResponses: [text('q-terms', 'true')], participants: [says(anAnswer)] },
      'ANSWER_REQUIRED',
      'purchaser.customQuestionResponses',
    ],
    [
      'a required participant question missing for the second participant',
      { participants: [says(anAnswer), says()] },
      'ANSWER_REQUIRED',
      `${P}.1.customQuestionResponses`,
    ],
    [
      'required terms not accepted by the purchaser',
      { purchaserResponses: [text('q-company', 'Acme'), text('q-terms', 'false')] },
      'ANSWER_REQUIRED',
      'purchaser.customQuestionResponses',
    ],
    [
      'a bad purchaser answer under a custom purchaser path',
      { purchaserField: 'purchaser.answers', purchaserResponses: [text('q-company', 'Acme'), text('q-terms', 'maybe')] },
      'INVALID_ANSWER',
      'purchaser.answers.1.answer.0.value',
    ],
  ])('refuses %s', (_name, input, code, field) => {
    expect(codeAndField(() => run(input))).toEqual({ code, field });
  });

  it('reports malformed lists before missing answers', () => {
    const input = { purchaserResponses: [], participants: [{ responses: [text('q-nope', 'x')] }] };
    expect(codeAndField(() => run(input))).toEqual({ code: 'UNKNOWN_QUESTION', field: `${P}.0.customQuestionResponses.0.questionId` });
  });

  describe('when the first participant is the purchaser', () => {
    const merged = (participants: ValidateAnswersInput['participants']) =>
      run({ purchaserResponses: undefined, purchaserIsFirstParticipant: true, participants });

    it("takes both scopes from the first participant's list", () => {
      const result = merged([
        { responses: [text('q-name', 'Ana'), text('q-company', 'Acme'), text('q-terms', 'true')] },
        { responses: [text('q-name', 'Rui')] },
      ]);
      expect(result.purchaser.map((a) => a.answer)).toEqual([[{ value: 'Acme' }], [{ value: true }]]);
      expect(result.participants.map((list) => list[0]?.answer)).toEqual([[{ value: 'Ana' }], [{ value: 'Rui' }]]);
    });

    it.each<[string, ValidateAnswersInput['participants'], string, string]>([
      [
        'purchaser answers from the second participant',
        [
          { responses: [text('q-name', 'A'), text('q-company', 'Acme'), text('q-terms', 'true')] },
          { responses: [text('q-name', 'B'), text('q-company', 'x')] },
        ],
        'UNKNOWN_QUESTION',
        `${P}.1.customQuestionResponses.1.questionId`,
      ],
      [
        'a required purchaser answer missing',
        [{ responses: [text('q-name', 'A'), text('q-terms', 'true')] }],
        'ANSWER_REQUIRED',
        `${P}.0.customQuestionResponses`,
      ],
    ])('refuses %s', (_name, participants, code, field) => {
      expect(codeAndField(() => merged(participants))).toEqual({ code, field });
    });
  });

  describe("with the cart's other items", () => {
    const other = new Set(['q-other-exp']);

    it("skips the purchaser's answers to another item's questions", () => {
      const purchaserResponses = [text('q-other-exp', 'x'), ...purchaserOk];
      const result = run({ otherItemQuestionIds: other, purchaserResponses, participants: [{ responses: [text('q-name', 'A')] }] });
      expect(result.purchaser.map((a) => a.question.customQuestionId)).toEqual(['q-company', 'q-terms']);
    });

    it('still refuses them in a participant list', () => {
      const input = { otherItemQuestionIds: other, participants: [{ responses: [text('q-name', 'A'), text('q-other-exp', 'x')] }] };
      expect(codeAndField(() => run(input))).toEqual({ code: 'UNKNOWN_QUESTION', field: `${P}.0.customQuestionResponses.1.questionId` });
    });
  });
});
