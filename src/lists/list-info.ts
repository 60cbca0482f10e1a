/** A named list as `GET /api/lists/{id}` gives it: exactly these two keys. */
export interface ListInfo {
  readonly id: string;
  readonly title: string;
}
