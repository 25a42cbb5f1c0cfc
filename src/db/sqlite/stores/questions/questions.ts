import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { idList, inIdList, preparedPerDb } from '../../prepared.ts';
import { experienceQuestions, questions } from '../../schema/index.ts';
import type { AssignedQuestionRow, QuestionsStore } from '../../../../domain/questions/store.ts';
import type { SqliteStore } from '../../store-binding.ts';

const activeQuestionsOf = preparedPerDb((db) =>
  db
    .select({ question: questions, assignment: experienceQuestions })
    .from(experienceQuestions)
    .innerJoin(questions, eq(questions.id, experienceQuestions.questionId))
    .where(and(inIdList(experienceQuestions.experienceId, 'ids'), eq(experienceQuestions.isActive, true)))
    .orderBy(asc(experienceQuestions.experienceId), asc(experienceQuestions.order), asc(experienceQuestions.id))
    .prepare(),
);

export function activeQuestionsOfExperiences(db: Db, experienceIds: readonly string[]): AssignedQuestionRow[] {
  if (experienceIds.length === 0) return [];
  return activeQuestionsOf(db).all({ ids: idList(experienceIds) });
}

export const questionsStore = {
  activeQuestionsOfExperiences,
} satisfies SqliteStore<QuestionsStore>;
