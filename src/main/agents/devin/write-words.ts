/**
 * Words for new Devin session ids, which are two-word slugs such as `quiet-harbor` (shared/formats/
 * cursor-devin-atif-acp.md C3 "id: two-word slug"). 64 × 64 pairs; the writer retries on a clash.
 */

/** First words (lower-case ASCII). */
export const ADJECTIVES: readonly string[] = [
  'amber', 'ancient', 'autumn', 'billowing', 'bitter', 'bold', 'brave', 'bright',
  'broad', 'calm', 'clever', 'cold', 'crimson', 'dawn', 'deep', 'distant',
  'dry', 'dusty', 'eager', 'early', 'empty', 'fading', 'fallen', 'flying',
  'fragrant', 'gentle', 'gilded', 'golden', 'green', 'hidden', 'hollow', 'icy',
  'jolly', 'late', 'lively', 'lone', 'lucky', 'misty', 'morning', 'nimble',
  'noble', 'old', 'pale', 'patient', 'polished', 'proud', 'quiet', 'rapid',
  'restless', 'rough', 'round', 'rustic', 'silent', 'silver', 'small', 'snowy',
  'solitary', 'spring', 'steady', 'still', 'summer', 'swift', 'twilight', 'wandering',
]

/** Second words (lower-case ASCII). */
export const NOUNS: readonly string[] = [
  'bay', 'birch', 'bird', 'breeze', 'brook', 'butterfly', 'canyon', 'cedar',
  'cherry', 'cloud', 'creek', 'dew', 'dream', 'dune', 'ember', 'falcon',
  'fern', 'field', 'firefly', 'flower', 'fog', 'forest', 'frost', 'glade',
  'grass', 'harbor', 'haze', 'heron', 'hill', 'lake', 'lantern', 'leaf',
  'meadow', 'moon', 'moss', 'mountain', 'night', 'oak', 'orchid', 'otter',
  'pebble', 'pine', 'pond', 'rain', 'reef', 'ridge', 'river', 'sea',
  'shadow', 'shore', 'sky', 'smoke', 'snow', 'sparrow', 'star', 'stone',
  'sun', 'thunder', 'tree', 'valley', 'violet', 'water', 'wave', 'willow',
]
