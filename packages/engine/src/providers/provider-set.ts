import type { ClassifierProvider, ImageProvider, JobKind, JobProviders, ProviderSet, TextProvider, VideoProvider } from './types.js';

/** What a layer changes of each kind of call; a kind it leaves out passes through as it is. */
export interface ProviderLayer {
  text?(provider: TextProvider, name: string): TextProvider;
  image?(provider: ImageProvider, name: string): ImageProvider;
  video?(provider: VideoProvider, name: string): VideoProvider;
  classifier?(provider: ClassifierProvider, name: string): ClassifierProvider;
  jobs?<K extends JobKind>(provider: JobProviders[K], kind: K, name: string): JobProviders[K];
}

/**
 * The providers seen through one layer (capacity, call keys, durable jobs, fallbacks): each layer says only
 * what it changes, and the rest (webhooks, batches, the kinds it leaves alone) passes through untouched.
 */
export function layered(providers: ProviderSet, layer: ProviderLayer): ProviderSet {
  return {
    text(name) {
      const p = providers.text(name);
      return p && layer.text ? layer.text(p, name) : p;
    },
    image(name) {
      const p = providers.image(name);
      return p && layer.image ? layer.image(p, name) : p;
    },
    video(name) {
      const p = providers.video(name);
      return p && layer.video ? layer.video(p, name) : p;
    },
    classifier(name) {
      const p = providers.classifier(name);
      return p && layer.classifier ? layer.classifier(p, name) : p;
    },
    jobs(kind, name) {
      const p = providers.jobs(kind, name);
      return p && layer.jobs ? layer.jobs(p, kind, name) : p;
    },
    webhooks: (name) => providers.webhooks(name),
    batches: (name) => providers.batches(name),
  };
}
