// Runs before every console test file: after each test, unmounts rendered trees and clears what it left behind.
import { notifications } from '@mantine/notifications';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // Mantine keeps notifications in a module-wide store; one test's toast must not show in the next.
  notifications.clean();
  window.localStorage.clear();
});
