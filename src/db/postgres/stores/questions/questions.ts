import { and, asc, eq } from 'drizzle-orm';
import type { AssignedQuestionRow, QuestionsStore } from '../../../../domain/questions/store.ts';
import { experienceQuestions, questions } from '../../schema/index.ts';
import { preparedPerExecutor, type PgExecutor, type PostgresStore } from '../../store-binding.ts';
import { anyOfPlaceholder, inByteOrder } from '../sql-parts.ts';

/**
 * Active question assignments of several experiences in one statement, by experience then `order`
 * (then assignment id). Experience pages and every checkout ask.
 */
const activeQuestions = preparedPerExecutor((db) =>
  db
    .select({ question: questions, assignment: experienceQuestions })
    .from(experienceQuestions)
    .innerJoin(questions, eq(questions.id, experienceQuestions.questionId))
    .where(and(anyOfPlaceholder(experienceQuestions.experienceId, 'ids'), eq(experienceQuestions.isActive, true)))
    .orderBy(asc(inByteOrder(experienceQuestions.experienceId)), asc(experienceQuestions.order), asc(inByteOrder(experienceQuestions.id)))
    .prepare('active_questions'),
);

export async function activeQuestionsOfExperiences(db: PgExecutor, experienceIds: readonly string[]): Promise<AssignedQuestionRow[]> {
  if (experienceIds.length === 0) return [];
  return activeQuestions(db).execute({ ids: [...experienceIds] });
}

export const questionsStore = {
  activeQuestionsOfExperiences,
} satisfies PostgresStore<QuestionsStore>;
