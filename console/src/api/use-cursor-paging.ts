import { useState } from 'react';

/** Cursor paging state for a newest-first /api list. */
export interface CursorPaging {
  /** the cursor of the page shown (null: the first page) */
  cursor: string | null;
  /** 1 for the first page */
  pageNumber: number;
  /** Moves on to the page after `nextCursor`. */
  next: (nextCursor: string) => void;
  /** Goes back one page. */
  previous: () => void;
}

/** Remembers the cursors of the pages seen so far; starts over at the first page whenever `resetKey` changes. */
export function useCursorPaging(resetKey: string): CursorPaging {
  const [state, setState] = useState<{ resetKey: string; cursors: Array<string | null> }>({ resetKey, cursors: [null] });
  // Adjusting state while rendering (React's documented pattern) avoids a render with the old filter's cursor.
  if (state.resetKey !== resetKey) setState({ resetKey, cursors: [null] });
  const cursors = state.resetKey === resetKey ? state.cursors : [null];
  return {
    cursor: cursors.at(-1) ?? null,
    pageNumber: cursors.length,
    next: (nextCursor) => setState({ resetKey, cursors: [...cursors, nextCursor] }),
    previous: () => setState({ resetKey, cursors: cursors.length > 1 ? cursors.slice(0, -1) : cursors }),
  };
}
