import { describe, expect, it } from 'vitest'
import { appDataRootList, resolveAppDataRoots } from './appdata'

describe('resolveAppDataRoots', () => {
  it('Linux defaults: ~/.config and ~/.local/share', () => {
    expect(resolveAppDataRoots('linux', '/home/ana')).toEqual({
      configRoot: '/home/ana/.config',
      dataRoot: '/home/ana/.local/share',
      xdgConfigHome: '/home/ana/.config',
      xdgDataHome: '/home/ana/.local/share',
    })
  })

  it('Linux honours XDG_CONFIG_HOME / XDG_DATA_HOME from the env it is given', () => {
    const roots = resolveAppDataRoots('linux', '/home/ana', { XDG_CONFIG_HOME: '/cfg', XDG_DATA_HOME: ' /data ' })
    expect(roots).toEqual({ configRoot: '/cfg', dataRoot: '/data', xdgConfigHome: '/cfg', xdgDataHome: '/data' })
  })

  it('macOS: ~/Library/Application Support; XDG dirs still under the home (xdg-basedir)', () => {
    expect(resolveAppDataRoots('darwin', '/Users/ana', { XDG_CONFIG_HOME: '/cfg' })).toEqual({
      configRoot: '/Users/ana/Library/Application Support',
      dataRoot: '/Users/ana/Library/Application Support',
      xdgConfigHome: '/cfg',
      xdgDataHome: '/Users/ana/.local/share',
    })
  })

  it('Windows own home: %APPDATA% and %LOCALAPPDATA%', () => {
    const env = { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' }
    expect(resolveAppDataRoots('win32', 'C:\\Users\\ana', env)).toEqual({
      configRoot: 'C:\\Users\\ana\\AppData\\Roaming',
      dataRoot: 'C:\\Users\\ana\\AppData\\Roaming',
      localAppData: 'C:\\Users\\ana\\AppData\\Local',
      xdgConfigHome: 'C:\\Users\\ana\\.config',
      xdgDataHome: 'C:\\Users\\ana\\.local\\share',
    })
  })

  it('Windows with APPDATA unset: <home>\\AppData\\Roaming and \\Local', () => {
    const roots = resolveAppDataRoots('win32', 'C:\\Users\\ana', {})
    expect(roots.configRoot).toBe('C:\\Users\\ana\\AppData\\Roaming')
    expect(roots.localAppData).toBe('C:\\Users\\ana\\AppData\\Local')
  })

  it('copied Windows profile on a Linux disk: <home>/AppData/Roaming and /Local', () => {
    expect(resolveAppDataRoots('win32', '/mnt/usb/Users/ana')).toEqual({
      configRoot: '/mnt/usb/Users/ana/AppData/Roaming',
      dataRoot: '/mnt/usb/Users/ana/AppData/Roaming',
      localAppData: '/mnt/usb/Users/ana/AppData/Local',
      xdgConfigHome: '/mnt/usb/Users/ana/.config',
      xdgDataHome: '/mnt/usb/Users/ana/.local/share',
    })
  })

  it('appDataRootList lists distinct roots in config, data, local order', () => {
    expect(appDataRootList(resolveAppDataRoots('linux', '/home/ana'))).toEqual(['/home/ana/.config', '/home/ana/.local/share'])
    expect(appDataRootList(resolveAppDataRoots('darwin', '/Users/ana'))).toEqual(['/Users/ana/Library/Application Support'])
    expect(appDataRootList(resolveAppDataRoots('win32', '/w/ana'))).toEqual(['/w/ana/AppData/Roaming', '/w/ana/AppData/Local'])
  })
})
