/** Which ~/.gemini/tmp/<slug> folder Gemini CLI 0.61 uses for a project (projectRegistry.ts getShortId). */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findAppRoot } from '../../context'
import { geminiProjectFolder, normalizeProjectPath, slugify } from './write-project'

const CWD = '/home/ana/src/notes-app'

/** A `.gemini` folder holding `files` (paths relative to it). */
const homes: string[] = []
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })))

function geminiDir(files: Record<string, string>): string {
  const home = mkdtempSync(join(tmpdir(), 'sepia-gproj-'))
  homes.push(home)
  const dir = join(home, '.gemini')
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true })
    writeFileSync(join(dir, rel), text)
  }
  mkdirSync(dir, { recursive: true })
  return dir
}

describe('slugify', () => {
  it('lower-cases, turns other characters into single dashes, trims them', () => {
    expect(slugify('notes-app')).toBe('notes-app')
    expect(slugify('My_Proj.v2 x (ü)')).toBe('my-proj-v2-x')
    expect(slugify('__')).toBe('project')
  })
})

describe('normalizeProjectPath', () => {
  it('resolves the path; a Windows home compares in lower case', () => {
    expect(normalizeProjectPath('/home/ana/src/x/../notes-app/', 'linux')).toBe(CWD)
    expect(normalizeProjectPath('C:\\Users\\Ana\\Src\\App', 'win32')).toBe('c:\\users\\ana\\src\\app')
  })
})

describe('geminiProjectFolder', () => {
  it('finds the folder of the real store (projects.json + markers present: nothing to create)', () => {
    const dir = join(findAppRoot(), 'fixtures/real/gemini/home/.gemini')
    expect(geminiProjectFolder(dir, CWD, 'linux')).toEqual({ slug: 'notes-app', projectPath: CWD, missingMarkers: [] })
  })

  it('claims the folder name as slug in an empty home, with both markers to create', () => {
    const dir = geminiDir({})
    expect(geminiProjectFolder(dir, CWD, 'linux')).toEqual({
      slug: 'notes-app',
      projectPath: CWD,
      missingMarkers: [join(dir, 'tmp/notes-app/.project_root'), join(dir, 'history/notes-app/.project_root')],
    })
  })

  it('uses the projects.json entry of the path, unless a marker gives that slug to another path', () => {
    const mapped = geminiDir({ 'projects.json': JSON.stringify({ projects: { [CWD]: 'custom-1' } }) })
    expect(geminiProjectFolder(mapped, CWD, 'linux').slug).toBe('custom-1')
    const stolen = geminiDir({ 'projects.json': JSON.stringify({ projects: { [CWD]: 'custom-1' } }), 'tmp/custom-1/.project_root': '/elsewhere' })
    expect(geminiProjectFolder(stolen, CWD, 'linux').slug).toBe('notes-app')
  })

  it('finds a folder whose .project_root names the path (any name)', () => {
    const dir = geminiDir({ 'tmp/odd-name/.project_root': `${CWD}\n` })
    expect(geminiProjectFolder(dir, CWD, 'linux')).toEqual({ slug: 'odd-name', projectPath: CWD, missingMarkers: [join(dir, 'history/odd-name/.project_root')] })
  })

  it('skips slugs that projects.json or a marker gives to another project; never changes projects.json', () => {
    const registry = JSON.stringify({ projects: { '/work/notes-app': 'notes-app' } }, null, 2)
    const dir = geminiDir({ 'projects.json': registry, 'history/notes-app-1/.project_root': '/other/notes-app' })
    expect(geminiProjectFolder(dir, CWD, 'linux').slug).toBe('notes-app-2')
    expect(readFileSync(join(dir, 'projects.json'), 'utf8')).toBe(registry)
  })

  it('treats a projects.json outside the CLI schema as empty (the CLI resets it)', () => {
    const dir = geminiDir({ 'projects.json': JSON.stringify({ projects: { [CWD]: 'Bad Slug' } }) })
    expect(geminiProjectFolder(dir, CWD, 'linux').slug).toBe('notes-app')
  })
})
