/** Renderer entry: mounts {@link App} with Pinia, after putting the theme in effect. */
import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { useUiStore } from './stores/ui'
import './styles.css'

const pinia = createPinia()
useUiStore(pinia).startTheme()
createApp(App).use(pinia).mount('#app')
