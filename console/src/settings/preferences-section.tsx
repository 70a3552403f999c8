import { SegmentedControl, Stack, Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toConsoleLanguage, type ConsoleLanguage } from '../i18n/create-console-i18n';
import { languageNames } from '../layout/preference-controls';
import { SettingsSection } from './settings-section';

/**
 * Language and theme, the same preferences as the header's controls (same i18next language and Mantine colour
 * scheme, so both stay in step and both are remembered the same way).
 */
export function PreferencesSection() {
  const { t, i18n } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const colorScheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const languages = Object.keys(languageNames) as ConsoleLanguage[];
  return (
    <SettingsSection id="preferences" title={t('settings.preferences.title')}>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="settings-language-label">{t('preferences.language')}</Text>
        <SegmentedControl
          aria-labelledby="settings-language-label"
          value={toConsoleLanguage(i18n.language)}
          onChange={(language) => void i18n.changeLanguage(language)}
          data={languages.map((language) => ({ value: language, label: languageNames[language] }))}
          style={{ alignSelf: 'flex-start' }}
        />
      </Stack>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="settings-theme-label">{t('preferences.theme')}</Text>
        <SegmentedControl
          aria-labelledby="settings-theme-label"
          value={colorScheme}
          onChange={(scheme) => setColorScheme(scheme === 'dark' ? 'dark' : 'light')}
          data={[
            { value: 'light', label: t('preferences.lightTheme') },
            { value: 'dark', label: t('preferences.darkTheme') },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
      </Stack>
    </SettingsSection>
  );
}
