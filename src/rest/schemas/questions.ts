import { Type } from 'typebox';
import { Nullable, Uuid } from './common.ts';

/** The spec's QuestionConfig: how a question applies to one experience. */
export const QuestionConfig = Type.Object({
  experienceId: Uuid,
  experienceQuestionId: Type.String(),
  isRequired: Type.Boolean(),
  isActive: Type.Boolean(),
  order: Type.Integer(),
  scope: Type.Enum(['purchaser', 'participant']),
  conditions: Nullable(
    Type.Array(
      Type.Object({
        rule: Type.Enum(['value_matches']),
        conditionKey: Type.String({ description: 'customQuestionId of the parent question whose answer is evaluated' }),
        conditionValue: Type.String({ description: 'Option key that must be among the parent answer' }),
      }),
    ),
  ),
  conditionsMatchType: Nullable(Type.Enum(['any', 'all'])),
});

/** The spec's QuestionSnapshot: a question as configured on an experience. */
export const QuestionSnapshot = Type.Object(
  {
    customQuestionId: Type.String(),
    prompt: Type.String(),
    fieldType: Type.Enum(['input', 'textarea', 'multiple_select', 'single_select', 'terms_and_conditions']),
    options: Nullable(Type.Array(Type.Object({ key: Type.String(), value: Type.String() }))),
    termsAndConditions: Nullable(
      Type.Object({
        label: Type.String(),
        mediaId: Type.String(),
        isOverrided: Type.Boolean(),
        mediaUrl: Type.Optional(Type.String({ description: 'URL of the document' })),
      }),
    ),
    config: QuestionConfig,
  },
  { $id: 'QuestionSnapshot', description: 'A custom question as configured on an experience' },
);
