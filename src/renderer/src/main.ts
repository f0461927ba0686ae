/** Renderer entry: mounts {@link App} with Pinia and vue-i18n, after putting the theme and the UI language in effect. */
import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { i18n } from './i18n'
import { useUiStore } from './stores/ui'
import './styles.css'

const pinia = createPinia()
const ui = useUiStore(pinia)
ui.startTheme()
ui.startLanguage()
createApp(App).use(pinia).use(i18n).mount('#app')
