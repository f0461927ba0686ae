import { describe, expect, it } from 'vitest'
import { normalizeHomeInput } from './home-path'

describe('normalizeHomeInput', () => {
  const own = '/home/me'
  it('expands ~ and file:// URLs, trims quotes and spaces', () => {
    expect(normalizeHomeInput('~', own, 'linux').path).toBe('/home/me')
    expect(normalizeHomeInput(' ~/backup/ana ', own, 'linux').path).toBe('/home/me/backup/ana')
    expect(normalizeHomeInput('file:///media/usb/ana', own, 'linux').path).toBe('/media/usb/ana')
    expect(normalizeHomeInput('"/media/usb/ana"', own, 'linux').path).toBe('/media/usb/ana')
  })
  it('climbs from an agent folder to the home that contains it, and says so', () => {
    expect(normalizeHomeInput('/media/usb/ana/.claude', own, 'linux')).toEqual({ path: '/media/usb/ana', note: 'Opened /media/usb/ana, the folder that contains .claude.' })
    expect(normalizeHomeInput('/media/usb/ana/.claude/projects', own, 'linux').path).toBe('/media/usb/ana')
    expect(normalizeHomeInput('/media/usb/ana/.cline/data', own, 'linux').path).toBe('/media/usb/ana')
    expect(normalizeHomeInput('/media/usb/ana/AppData', own, 'linux').path).toBe('/media/usb/ana')
    expect(normalizeHomeInput('/media/usb/ana', own, 'linux').note).toBeUndefined()
  })
  it('refuses relative paths and Windows paths on another OS, in plain words', () => {
    expect(() => normalizeHomeInput('fixtures/real', own, 'linux')).toThrow(/not a full path/)
    expect(() => normalizeHomeInput('C:\\Users\\ana', own, 'linux')).toThrow(/is a Windows path/)
    expect(() => normalizeHomeInput('   ', own, 'linux')).toThrow(/Type the full path/)
  })
})
