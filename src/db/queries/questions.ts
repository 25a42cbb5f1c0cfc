import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { experienceQuestions, questions } from '../schema.ts';

export type QuestionRow = typeof questions.$inferSelect;
export type ExperienceQuestionRow = typeof experienceQuestions.$inferSelect;

export interface AssignedQuestionRow {
  question: QuestionRow;
  assignment: ExperienceQuestionRow;
}

/** Active question assignments of several experiences in one statement, by experience then `order`. */
export function activeQuestionsOfExperiences(db: Db, experienceIds: readonly string[]): AssignedQuestionRow[] {
  if (experienceIds.length === 0) return [];
  return db
    .select({ question: questions, assignment: experienceQuestions })
    .from(experienceQuestions)
    .innerJoin(questions, eq(questions.id, experienceQuestions.questionId))
    .where(and(inArray(experienceQuestions.experienceId, [...experienceIds]), eq(experienceQuestions.isActive, true)))
    .orderBy(asc(experienceQuestions.experienceId), asc(experienceQuestions.order), asc(experienceQuestions.id))
    .all();
}
