import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { QuestionCondition, QuestionOption, TermsAndConditions } from '../../../domain/shared/json-types.ts';
import { conditionsMatchTypes, questionFieldTypes, questionScopes } from '../../../domain/shared/values.ts';
import { brands, experiences } from './catalog.ts';

/** Question definitions of a brand (`customQuestionId`). */
export const questions = sqliteTable('questions', {
  id: text('id').primaryKey(),
  brandId: text('brand_id')
    .notNull()
    .references(() => brands.id),
  prompt: text('prompt').notNull(),
  fieldType: text('field_type', {
    enum: questionFieldTypes,
  }).notNull(),
  options: text('options', { mode: 'json' }).$type<QuestionOption[]>(),
  termsAndConditions: text('terms_and_conditions', { mode: 'json' }).$type<TermsAndConditions>(),
});

/** A question assigned to an experience (`experienceQuestionId`). */
export const experienceQuestions = sqliteTable(
  'experience_questions',
  {
    id: text('id').primaryKey(),
    experienceId: text('experience_id')
      .notNull()
      .references(() => experiences.id),
    questionId: text('question_id')
      .notNull()
      .references(() => questions.id),
    isRequired: integer('is_required', { mode: 'boolean' }).notNull(),
    isActive: integer('is_active', { mode: 'boolean' }).notNull(),
    order: integer('order').notNull(),
    scope: text('scope', { enum: questionScopes }).notNull(),
    conditions: text('conditions', { mode: 'json' }).$type<QuestionCondition[]>(),
    conditionsMatchType: text('conditions_match_type', { enum: conditionsMatchTypes }),
  },
  (t) => [index('experience_questions_experience_idx').on(t.experienceId, t.order)],
);
