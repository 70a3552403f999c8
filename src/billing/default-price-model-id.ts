/**
 * The model id of the operator's default price (`PUT /api/prices/*`): what a model with neither its own operator price
 * nor a catalog list price is billed at. Without it such a model is refused (docs/BILLING.md, prices).
 */
export const defaultPriceModelId = '*';
