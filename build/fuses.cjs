/**
 * electron-builder `afterPack` hook: flips Electron's fuses in the packaged binary (Electron's
 * security checklist; issue 16). electron-builder 25 has no `electronFuses` option (it arrived in
 * 26), so the fuses are set here with @electron/fuses, the library electron-builder 26 uses.
 * @electron/fuses is a devDependency (packaging only; not used by tests or the app).
 */
const { join } = require('node:path')

/** The fuses and their values; tests/electron-hardening.test.ts reads this table. */
const FUSES = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  OnlyLoadAppFromAsar: true,
  EnableEmbeddedAsarIntegrityValidation: true,
  EnableCookieEncryption: true,
}

exports.FUSES = FUSES

exports.default = async function afterPack(context) {
  let fuses
  try {
    fuses = require('@electron/fuses')
  } catch {
    throw new Error('Packaging Sepia flips Electron fuses with @electron/fuses: run `npm install -D @electron/fuses` first.')
  }
  const { flipFuses, FuseVersion, FuseV1Options } = fuses
  const name = context.packager.appInfo.productFilename
  const exe = {
    darwin: join(context.appOutDir, `${name}.app`),
    mas: join(context.appOutDir, `${name}.app`),
    win32: join(context.appOutDir, `${name}.exe`),
    linux: join(context.appOutDir, context.packager.executableName),
  }[context.electronPlatformName]
  const options = { version: FuseVersion.V1, resetAdHocDarwinSignature: context.electronPlatformName === 'darwin' }
  for (const [fuse, on] of Object.entries(FUSES)) options[FuseV1Options[fuse]] = on
  await flipFuses(exe, options)
}
