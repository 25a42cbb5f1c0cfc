import type { QuestionCondition, QuestionOption, TermsAndConditions } from '../../domain/shared/json-types.ts';

export interface AssignedQuestionRow {
  question: QuestionRow;
  assignment: ExperienceQuestionRow;
}

export interface QuestionRow {
  id: string;
  brandId: string;
  prompt: string;
  fieldType: 'input' | 'textarea' | 'multiple_select' | 'single_select' | 'terms_and_conditions';
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
  scope: 'purchaser' | 'participant';
  conditions: QuestionCondition[] | null;
  conditionsMatchType: 'all' | 'any' | null;
}

export interface QuestionsStore {
  /**
   * Active question assignments of several experiences in one statement, by experience then `order`.
   * Experience pages and every checkout ask: prepared once.
   */
  activeQuestionsOfExperiences(experienceIds: readonly string[]): Promise<AssignedQuestionRow[]>;
}
