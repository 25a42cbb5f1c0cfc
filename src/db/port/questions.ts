import type { ConditionsMatchType, QuestionFieldType, QuestionScope } from '../../domain/shared/values.ts';
import type { QuestionCondition, QuestionOption, TermsAndConditions } from '../../domain/shared/json-types.ts';

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
   * Active question assignments of several experiences in one statement, by experience then `order`.
   * Experience pages and every checkout ask: prepared once.
   */
  activeQuestionsOfExperiences(experienceIds: readonly string[]): Promise<AssignedQuestionRow[]>;
}
