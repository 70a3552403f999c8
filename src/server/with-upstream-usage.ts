/** A streamed request body that always asks the vendor for the usage chunk, which billing needs (the same body when it already does). */
export function withUpstreamUsage<Body extends { stream_options?: Record<string, unknown> | null | undefined }>(
  body: Body,
): Body {
  if (body.stream_options?.include_usage === true) return body;
  return { ...body, stream_options: { ...(body.stream_options ?? {}), include_usage: true } };
}
