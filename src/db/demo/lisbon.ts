/** Harbor Lisbon's catalog: hosts, taxonomy, guests, and the experiences, listings and questions of its files. */
import type { BrandCatalog } from './catalog-types.ts';
import { demoIds } from './ids.ts';
import { lisbonExperiences } from './lisbon-experiences.ts';
import { lisbonListings } from './lisbon-listings.ts';
import { lisbonAssignments, lisbonQuestions } from './lisbon-questions.ts';
import { lisbonSpecialExperiences } from './lisbon-special-experiences.ts';

export const lisbonCatalog: BrandCatalog = {
  brand: 'lisbon',
  brandId: demoIds.brands.lisbon,
  hosts: [
    {
      key: 'ines',
      firstName: 'Inês',
      lastName: 'Carvalho',
      emailAddress: 'ines.carvalho@harborcollection.example',
      phoneNumber: '+351 912 480 117',
      description: 'Street photographer born in Graça; has shot Lisbon’s trams and murals for fifteen years.',
    },
    {
      key: 'rui',
      firstName: 'Rui',
      lastName: 'Tavares',
      emailAddress: 'rui.tavares@harborcollection.example',
      phoneNumber: '+351 913 205 664',
      description: 'Grew up above his grandmother’s pastelaria in Alfama and plays Portuguese guitar on weekends.',
      allowOverlappingBookings: true,
    },
    {
      key: 'marta',
      firstName: 'Marta',
      lastName: 'Sousa',
      emailAddress: 'marta.sousa@harborcollection.example',
      phoneNumber: '+351 916 733 092',
      description: 'Licensed skipper and Sintra native; has sailed the Tagus estuary since she was twelve.',
    },
  ],
  categories: ['Walking tours', 'Music & culture', 'On the water', 'Food & drink', 'Day trips'],
  vibes: ['Photogenic', 'Small group', 'Romantic', 'Local favourite', 'Family friendly', 'Hands-on'],
  experiences: [...lisbonExperiences, ...lisbonSpecialExperiences],
  listings: lisbonListings,
  questions: lisbonQuestions,
  assignments: lisbonAssignments,
  reviewers: {
    firstNames: [
      'Emma',
      'Lucas',
      'Sofia',
      'Oliver',
      'Mia',
      'Noah',
      'Chloé',
      'Matteo',
      'Hannah',
      'Jonas',
      'Aisha',
      'Daniel',
      'Laura',
      'Tomás',
      'Priya',
      'Ethan',
    ],
    lastNames: [
      'Schneider',
      'Rossi',
      'Martin',
      'Fernández',
      'Johansson',
      'Kowalski',
      'Walsh',
      'Dubois',
      'Silva',
      'Novak',
      'Becker',
      'Hughes',
      'Moreau',
      'Jensen',
      'Costa',
    ],
    phone: (n) => `+44 7700 900${String(100 + n).padStart(3, '0')}`,
  },
};
