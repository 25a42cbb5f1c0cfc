import type { ConditionsMatchType, QuestionFieldType, QuestionScope } from '../shared/values.ts';
import type { QuestionCondition, QuestionOption, TermsAndConditions } from '../shared/json-types.ts';

export interface AssignedQuestionRow {
  question: QuestionRow;
  assignment: ExperienceQuestionRow;
}

export interface QuestionRow {
  id: string;
  brandId: string;
  prompt: string;
  fieldType: QuestionFieldType;
  options: QuestionOption[] | null;
  termsAndConditions: TermsAndConditions | null;
}

export interface ExperienceQuestionRow {
  id: string;
  experienceId: string;
  questionId: string;
  isRequired: boolean;
  isActive: boolean;
  order: number;
  scope: QuestionScope;
  conditions: QuestionCondition[] | null;
  conditionsMatchType: ConditionsMatchType | null;
}

export interface QuestionsStore {
  /**
   * Active question assignments of several experiences, by experience id, then `order`, then assignment
   * id. Experience pages and every checkout ask (a hot path).
   */
  activeQuestionsOfExperiences(experienceIds: readonly string[]): Promise<AssignedQuestionRow[]>;
}
