import { posix, win32 } from 'node:path'
import { describe, expect, it } from 'vitest'
import { envValue, pathApiFor, resolveHome } from './home'

const osHome = () => '/from/os/homedir'

describe('resolveHome (seed 000 "Per-user storage")', () => {
  it('uses $HOME first', () => {
    expect(resolveHome({ HOME: '/home/ana', USERPROFILE: 'C:\\Users\\bob' }, osHome)).toBe('/home/ana')
  })

  it('trims $HOME and ignores a literal "~"', () => {
    expect(resolveHome({ HOME: '  /home/ana \n' }, osHome)).toBe('/home/ana')
    expect(resolveHome({ HOME: '~', USERPROFILE: 'C:\\Users\\ana' }, osHome)).toBe('C:\\Users\\ana')
  })

  it('Windows: HOME unset -> %USERPROFILE%', () => {
    expect(resolveHome({ USERPROFILE: 'C:\\Users\\ana', HOMEDRIVE: 'D:', HOMEPATH: '\\x' }, osHome)).toBe('C:\\Users\\ana')
  })

  it('Windows: HOME and USERPROFILE unset -> %HOMEDRIVE%%HOMEPATH%', () => {
    expect(resolveHome({ HOMEDRIVE: 'C:', HOMEPATH: '\\Users\\ana' }, osHome)).toBe('C:\\Users\\ana')
    expect(resolveHome({ HOME: '', USERPROFILE: '  ', HOMEDRIVE: 'C:', HOMEPATH: '\\Users\\ana' }, osHome)).toBe(
      'C:\\Users\\ana',
    )
  })

  it('needs both HOMEDRIVE and HOMEPATH, else os.homedir()', () => {
    expect(resolveHome({ HOMEDRIVE: 'C:' }, osHome)).toBe('/from/os/homedir')
    expect(resolveHome({ HOMEPATH: '\\Users\\ana' }, osHome)).toBe('/from/os/homedir')
    expect(resolveHome({}, osHome)).toBe('/from/os/homedir')
  })

  it('falls back to "~" when os.homedir() is empty or throws', () => {
    expect(resolveHome({}, () => '')).toBe('~')
    expect(
      resolveHome({}, () => {
        throw new Error('no passwd entry')
      }),
    ).toBe('~')
  })
})

describe('pathApiFor', () => {
  it('joins a Windows home with backslashes and a POSIX home with slashes', () => {
    expect(pathApiFor('C:\\Users\\ana')).toBe(win32)
    expect(pathApiFor('c:/Users/ana')).toBe(win32)
    expect(pathApiFor('\\\\server\\share\\ana')).toBe(win32)
    expect(pathApiFor('/home/ana')).toBe(posix)
    expect(pathApiFor('/mnt/backup/Users/ana')).toBe(posix)
    expect(pathApiFor('C:\\Users\\ana').join('C:\\Users\\ana', 'Documents')).toBe('C:\\Users\\ana\\Documents')
  })
})

describe('envValue', () => {
  it('trims and treats blank as unset', () => {
    expect(envValue({ A: ' x ' }, 'A')).toBe('x')
    expect(envValue({ A: '   ' }, 'A')).toBeUndefined()
    expect(envValue({}, 'A')).toBeUndefined()
  })
})
