import { publicOrigin } from '@atelier/api/http/public-origin';
import type { AtelierConfig } from '../config.js';

/**
 * The origin file URLs are made on. ATELIER_PUBLIC_URL when set (checked now, so a bad value stops the
 * gateway at start); otherwise `atelier dev` leaves it to the gateway, which uses the address it listens
 * on, and a production gateway (`atelier api`) refuses to start: behind a load balancer, its own address
 * is not what clients reach, and a request's Host header is the caller's to choose.
 */
export function resolvePublicUrl(config: Pick<AtelierConfig, 'publicUrl'>, embedded: boolean): string | undefined {
  if (config.publicUrl) return publicOrigin(config.publicUrl);
  if (embedded) return undefined;
  throw new Error(
    'ATELIER_PUBLIC_URL is not set: the origin clients reach the gateway at (for example https://api.example.com), on which file URLs are made',
  );
}
