/** A count with its noun in the right number: "1 chunk", "2 chunks", "1,204 chunks". */
export const counted = (count: number, one: string, many = `${one}s`): string => `${count.toLocaleString()} ${count === 1 ? one : many}`;
