import { GatewayError } from '../../core/gateway-error.js';
import type { VideoTaskService } from '../../tasks/video-task-service.js';
import type { GatewayServices } from '../gateway-services.js';

/** The video task layer, or 503 `service_unavailable` when this gateway was built without one. */
export function requireVideoTasks(services: GatewayServices): VideoTaskService {
  if (!services.videoTasks)
    throw new GatewayError('service_unavailable', 'Video generation is not available on this gateway.');
  return services.videoTasks;
}
