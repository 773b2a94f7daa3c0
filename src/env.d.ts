/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /**
     * The archive database and the settings, passed by every caller of the SSR handler (the front server,
     * the in-process renderer, the render workers, the test sites; api/server/ssr.ts). Absent only while
     * `astro build` prerenders the text pages. Pages read it through siteDeps(Astro) (src/loaders/deps.ts).
     */
    site?: import('./loaders/deps.ts').SiteDeps;
  }
}
