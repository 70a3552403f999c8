import { ActionIcon, Group, Menu, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconLanguage, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { toConsoleLanguage, type ConsoleLanguage } from '../i18n/create-console-i18n';

/** Each language under its own name, so people find theirs whatever language is showing. */
export const languageNames: Record<ConsoleLanguage, string> = { en: 'English', 'zh-CN': '简体中文' };

/** The language menu and the light/dark switch, shown in the shell's header and on the sign-in and setup pages. */
export function PreferenceControls() {
  const { t, i18n } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const colorScheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const current = toConsoleLanguage(i18n.language);
  const switchLabel = colorScheme === 'dark' ? t('preferences.switchToLight') : t('preferences.switchToDark');
  return (
    <Group gap="xs" wrap="nowrap">
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label={t('preferences.language')}>
            <IconLanguage size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {(Object.keys(languageNames) as ConsoleLanguage[]).map((language) => (
            <Menu.Item key={language} onClick={() => void i18n.changeLanguage(language)} fw={language === current ? 700 : undefined} lang={language}>
              {languageNames[language]}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Tooltip label={switchLabel}>
        <ActionIcon variant="default" size="lg" aria-label={switchLabel} onClick={() => setColorScheme(colorScheme === 'dark' ? 'light' : 'dark')}>
          {colorScheme === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
