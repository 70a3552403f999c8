/**
 * The Vertex AI locations a channel may name in its `location` setting: `global` (host `aiplatform.googleapis.com`)
 * and the regions of Google's generative AI locations list (host `{region}-aiplatform.googleapis.com`). Not every model
 * is offered in every region; Vertex answers 404 for a model a region lacks.
 */
export const vertexLocations: readonly string[] = [
  'global',
  'us-central1',
  'us-east1',
  'us-east4',
  'us-east5',
  'us-south1',
  'us-west1',
  'us-west4',
  'northamerica-northeast1',
  'southamerica-east1',
  'europe-west1',
  'europe-west2',
  'europe-west3',
  'europe-west4',
  'europe-west6',
  'europe-west8',
  'europe-west9',
  'europe-north1',
  'europe-central2',
  'europe-southwest1',
  'asia-east1',
  'asia-east2',
  'asia-northeast1',
  'asia-northeast3',
  'asia-south1',
  'asia-southeast1',
  'australia-southeast1',
  'me-central1',
  'me-central2',
  'me-west1',
];
