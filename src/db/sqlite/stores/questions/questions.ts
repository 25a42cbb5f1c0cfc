import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb } from '../../prepared.ts';
import { experienceQuestions, questions } from '../../schema/index.ts';
import type { QuestionsStore } from '../../../port/questions.ts';
import type { SqliteStore } from '../../store-binding.ts';

export type QuestionRow = typeof questions.$inferSelect;
export type ExperienceQuestionRow = typeof experienceQuestions.$inferSelect;

export interface AssignedQuestionRow {
  question: QuestionRow;
  assignment: ExperienceQuestionRow;
}

const activeQuestionsOf = preparedPerDb((db) =>
  db
    .select({ question: questions, assignment: experienceQuestions })
    .from(experienceQuestions)
    .innerJoin(questions, eq(questions.id, experienceQuestions.questionId))
    .where(and(inIdList(experienceQuestions.experienceId, 'ids'), eq(experienceQuestions.isActive, true)))
    .orderBy(asc(experienceQuestions.experienceId), asc(experienceQuestions.order), asc(experienceQuestions.id))
    .prepare(),
);

/**
 * Active question assignments of several experiences in one statement, by experience then `order`.
 * Experience pages and every checkout ask: prepared once.
 */
export function activeQuestionsOfExperiences(db: Db, experienceIds: readonly string[]): AssignedQuestionRow[] {
  if (experienceIds.length === 0) return [];
  return activeQuestionsOf(db).all({ ids: idList(experienceIds) });
}

export const questionsStore = {
  activeQuestionsOfExperiences,
} satisfies SqliteStore<QuestionsStore>;
