/**
 * Secrets (issue 9 item 7): detectors for API keys, tokens and private keys in transcripts,
 * masking of everything that leaves main, and the list of credential files agents keep.
 */
export { findSecrets, isPlaceholder, isSecretName, SECRET_NAME_ENDINGS, type SecretMatch } from './detectors'
export { cutOutsideSecrets, markMasked, MASK, maskedSessionOf, maskMarker, maskResult, maskSession, maskSessionSliced, maskText, maskValue } from './mask'
export { encryptionKeyFiles, findCredentialFiles } from './credentials'
export { maskApiResults, UNMASKED_METHODS } from './api'
