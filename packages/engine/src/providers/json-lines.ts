/**
 * The records of a JSON Lines file, as the batch APIs answer with their results: one JSON value a line.
 * A blank line or one that does not parse is passed over, so that one damaged line costs its own item (the
 * caller finds it missing) and not the whole batch.
 */
export function jsonLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as T];
      } catch {
        return [];
      }
    });
}
