/** Turning anything thrown by an API call into the plain error shape the views show. */
import { SepiaError, type SepiaErrorShape } from '../../shared/api'

/**
 * The `{code, message, path?, line?}` of anything thrown. A SepiaError keeps its code; anything
 * else becomes `INTERNAL` and is also logged to the developer console (it is a bug, not a user error).
 */
export function toShape(e: unknown): SepiaErrorShape {
  if (!(e instanceof SepiaError)) console.error(e)
  const shape = SepiaError.from(e).toJSON()
  if (typeof shape.message !== 'string' || shape.message === '') shape.message = String(e)
  return shape
}
