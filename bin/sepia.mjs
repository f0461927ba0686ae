#!/usr/bin/env node
// The `sepia` command (npx sepia ...): runs the TypeScript CLI through tsx's loader, so no build
// step is needed for the terminal commands.
import { register } from 'tsx/esm/api'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { dirname, join } from 'node:path'

register()
const here = dirname(fileURLToPath(import.meta.url))
const { main } = await import(pathToFileURL(join(here, '..', 'src', 'cli', 'index.ts')).href)
const code = await main(process.argv.slice(2))
if (code !== -1) process.exitCode = code
