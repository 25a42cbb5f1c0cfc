/** A brand's category of experiences, as listings and experiences show it: `{ id, name }`. */
export interface Category {
  id: string;
  name: string;
}

/** A mood tag of a brand ("Relaxing", "Adventurous"), as listings and experiences show it: `{ id, name }`. */
export interface Vibe {
  id: string;
  name: string;
}
