/**
 * Merge-patch input (RFC 7396) from a create schema: every field optional and without its
 * default, so a field the caller leaves out stays as it is. zod 4 applies a field's `.default()`
 * even inside `.partial()`, which would silently reset every defaulted field on each PATCH.
 * @module
 */
import { z } from "zod";

/** The patch schema of `create`: its fields, optional, defaults removed, strict. */
export function mergePatch<Shape extends z.ZodRawShape>(
  create: z.ZodObject<Shape>,
): z.ZodType<Partial<z.output<z.ZodObject<Shape>>>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(create.shape)) {
    const bare = field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : field as z.ZodType;
    shape[key] = bare.optional();
  }
  return z.object(shape).strict() as unknown as z.ZodType<
    Partial<z.output<z.ZodObject<Shape>>>
  >;
}
