import { z } from 'zod';

/** A list given either as a YAML array or as comma-separated text (how environment variables carry lists). */
export const commaList = z.preprocess((value) => {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number') return [String(value)];
  if (typeof value === 'string') {
    return value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
  }
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'number' ? String(item) : item));
  return value;
}, z.array(z.string().min(1)));

/** A boolean that also accepts the text forms environment variables carry (`true`, `1`, `yes`...). */
export const flexibleBoolean = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const normalized = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(normalized)) return true;
  if (['false', '0', 'no', 'off', ''].includes(normalized)) return false;
  return value;
}, z.boolean());

/** Text that may be empty in the file (an unset variable) and reads as undefined then. */
export const optionalText = z.preprocess((value) => (value === '' || value === null ? undefined : value), z.string().optional());
