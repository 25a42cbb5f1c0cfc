/**
 * Personal data follows the key. A publishable key is public (it ships in a web page's source), so
 * whatever it can read, anyone can harvest: it never receives other people's contact details. Reviewers
 * appear by first name and last initial with their picture, hosts by name, picture and description;
 * e-mail addresses and phone numbers are left out (null in GraphQL, absent in REST). Secret keys, held by
 * the brand's and its partners' servers, read the spec's full shapes.
 */
import type { Principal } from './principal.ts';

/** Whether the caller may read other people's e-mail addresses and phone numbers. */
export const mayReadContacts = (principal: Principal): boolean => principal.kind !== 'publishable';

/** "Moreira" -> "M.": the initial a public page shows instead of a reviewer's last name. */
export const lastInitial = (lastName: string): string => {
  const initial = [...lastName.trim()][0];
  return initial ? `${initial.toLocaleUpperCase()}.` : '';
};
