/** A prompt for the flow assistants are asked most: plan a day around what a brand offers, then book it. */
import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'plan_a_day',
    {
      title: 'Plan a day',
      description: "Plans a day of the brand's experiences for a group, then books what the traveller chooses.",
      argsSchema: {
        date: z.string().describe('The day, YYYY-MM-DD.'),
        groupSize: z.string().describe('How many guests.'),
        interests: z.string().optional().describe('What the group likes, in its own words.'),
        language: z.string().optional().describe("The traveller's language (BCP 47), e.g. pt."),
      },
    },
    ({ date, groupSize, interests, language }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Plan ${date} for a group of ${groupSize}${interests ? ` who like ${interests}` : ''}. ` +
              `Use search_experiences with from and to both ${date} and groupSize ${groupSize}${language ? ` and language ${language}` : ''}, ` +
              'read the best candidates with get_experience (questions, cancellation policy), and propose a schedule whose sessions ' +
              'do not overlap (local times, with their time zone). Give prices as the formatted amounts. Once the traveller ' +
              'chooses, ask for the names of the guests and the e-mail of the traveller, price with quote_cart, then hold_places ' +
              'and give them the paymentLink to pay; never ask for card details.',
          },
        },
      ],
    }),
  );
}
