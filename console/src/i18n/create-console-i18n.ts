import i18next, { type i18n } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { english } from './catalogs/en';
import { simplifiedChinese } from './catalogs/zh-cn';

/** The languages the console speaks, as BCP 47 tags. */
export const consoleLanguages = ['en', 'zh-CN'] as const;

/** One of the console's languages. */
export type ConsoleLanguage = (typeof consoleLanguages)[number];

/** Where the chosen language is remembered between visits. */
const languageStorageKey = 'gateway-console-language';

/** Maps any detected tag (`zh`, `zh-Hans-CN`, `en-GB`, ...) to one of the console's languages. */
export function toConsoleLanguage(tag: string | undefined): ConsoleLanguage {
  return tag?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/**
 * Makes the console's i18next instance: English and Simplified Chinese, the language from the saved choice or
 * the browser, and `<html lang>` kept in step. `language` forces one (tests).
 */
export function createConsoleI18n(language?: ConsoleLanguage): i18n {
  const instance = i18next.createInstance();
  if (language === undefined) instance.use(LanguageDetector);
  instance.use(initReactI18next);
  instance.on('languageChanged', (tag) => {
    if (typeof document !== 'undefined') document.documentElement.lang = tag;
  });
  void instance.init({
    resources: { en: { translation: english }, 'zh-CN': { translation: simplifiedChinese } },
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...consoleLanguages],
    interpolation: { escapeValue: false },
    initAsync: false,
    detection: {
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: languageStorageKey,
      caches: ['localStorage'],
      convertDetectedLanguage: (tag: string) => toConsoleLanguage(tag),
    },
  });
  return instance;
}
