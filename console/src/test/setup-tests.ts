// Runs before every console test file: after each test, unmounts rendered trees and clears what it left behind.
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// A file's first render loads the router and the session; on a busy machine (the whole suite on two cores) that takes
// longer than the library's default second, and `findBy` would fail on time rather than on what the page shows.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  // Mantine keeps notifications in a module-wide store; one test's toast must not show in the next.
  notifications.clean();
  window.localStorage.clear();
});
