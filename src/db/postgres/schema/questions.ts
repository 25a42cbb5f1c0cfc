import { boolean, index, integer, json, pgTable, text } from 'drizzle-orm/pg-core';
import type { QuestionCondition, QuestionOption, TermsAndConditions } from '../../../domain/shared/json-types.ts';
import { conditionsMatchTypes, questionFieldTypes, questionScopes } from '../../../domain/shared/values.ts';
import { brands, experiences } from './catalog.ts';

/** Question definitions of a brand (`customQuestionId`). */
export const questions = pgTable('questions', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  prompt: text('prompt').notNull(),
  fieldType: text('field_type', { enum: questionFieldTypes }).notNull(),
  options: json('options').$type<QuestionOption[]>(),
  termsAndConditions: json('terms_and_conditions').$type<TermsAndConditions>(),
});

/** A question assigned to an experience (`experienceQuestionId`). */
export const experienceQuestions = pgTable(
  'experience_questions',
  {
    id: text('id').primaryKey(),
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    questionId: text('question_id')
      .notNull()
      .references(() => questions.id),
    isRequired: boolean('is_required').notNull(),
    isActive: boolean('is_active').notNull(),
    order: integer('order').notNull(),
    scope: text('scope', { enum: questionScopes }).notNull(),
    conditions: json('conditions').$type<QuestionCondition[]>(),
    conditionsMatchType: text('conditions_match_type', { enum: conditionsMatchTypes }),
  },
  (t) => [index('experience_questions_experience_idx').on(t.experienceId, t.order)],
);
