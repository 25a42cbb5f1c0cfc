import { and, asc, eq } from 'drizzle-orm';
import type { AssignedQuestionRow, QuestionsStore } from '../../../../domain/questions/store.ts';
import { experienceQuestions, questions } from '../../schema/index.ts';
import type { PgExecutor, PostgresStore } from '../../store-binding.ts';
import { anyOf, inByteOrder } from '../catalog/sql-parts.ts';

/**
 * Active question assignments of several experiences in one statement, by experience then `order`
 * (then assignment id). Experience pages and every checkout ask.
 */
export async function activeQuestionsOfExperiences(db: PgExecutor, experienceIds: readonly string[]): Promise<AssignedQuestionRow[]> {
  if (experienceIds.length === 0) return [];
  return db
    .select({ question: questions, assignment: experienceQuestions })
    .from(experienceQuestions)
    .innerJoin(questions, eq(questions.id, experienceQuestions.questionId))
    .where(and(anyOf(experienceQuestions.experienceId, experienceIds), eq(experienceQuestions.isActive, true)))
    .orderBy(asc(inByteOrder(experienceQuestions.experienceId)), asc(experienceQuestions.order), asc(inByteOrder(experienceQuestions.id)));
}

export const questionsStore = {
  activeQuestionsOfExperiences,
} satisfies PostgresStore<QuestionsStore>;
