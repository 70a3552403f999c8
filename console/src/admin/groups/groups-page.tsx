import { Divider, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { CatalogEntriesSection } from './catalog-entries-section';
import { ModelGroupsSection } from './model-groups-section';
import { PricesSection } from './prices-section';

/** The administrators' Groups & prices page: model groups and their ratios, the prices in force, catalog entries. */
export function GroupsPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('groups.title')} subtitle={t('groups.subtitle')} />
      <ModelGroupsSection />
      <Divider />
      <PricesSection />
      <Divider />
      <CatalogEntriesSection />
    </Stack>
  );
}
