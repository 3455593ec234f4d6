/* The service worker (served as /sw.js): where the browser allows one (https, or the server's own machine;
   not a phone on plain http on the LAN), a reload without the Wi-Fi still shows the last copy of the page
   (the session page, a deal form, a player's part) and its files; what was typed comes back from the
   phone's own copy (static/keep.js). Pages and files come from the network first and are kept as they
   arrive (a new release is used at once); a copy serves only when the network does not answer. A page
   the server marks no-store (one that shows a token: the scorer's link, a seat's move link) is never
   kept. Writes, the JSON API and the live updates always go to the server. A static file's address carries
   its content's hash (?v=, kunken_scorer/web/assets.py), as the pages write it: a copy is kept under that
   address, and the copies of the file's older versions are dropped as the new one arrives. */
"use strict";
var CACHE = "kunken-pages-v2";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; }).map(function (name) {
      return caches.delete(name);
    }));
  }).then(function () { return self.clients.claim(); }));
});

function kept(request) {
  return caches.open(CACHE).then(function (cache) { return cache.match(request); });
}

function keep(request, response) {
  var control = (response && response.headers.get("Cache-Control")) || "";
  if (response && response.ok && response.type === "basic" && control.indexOf("no-store") < 0) {
    var copy = response.clone();
    caches.open(CACHE).then(function (cache) {
      return cache.put(request, copy).then(function () { return dropOlderVersions(cache, request.url); });
    });
  }
  return response;
}

// A static file at a versioned address replaces the copies of the same file at its other versions.
function dropOlderVersions(cache, address) {
  var url = new URL(address);
  if (url.pathname.indexOf("/static/") !== 0 || !url.searchParams.has("v")) { return null; }
  return cache.keys().then(function (requests) {
    return Promise.all(requests.filter(function (kept) {
      var other = new URL(kept.url);
      return other.pathname === url.pathname && other.search !== url.search;
    }).map(function (kept) { return cache.delete(kept); }));
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  // Writes, the API and the live updates go to the server as they are (through this worker, so that the
  // page and the worker are on or off the network together).
  if (request.method !== "GET" || url.pathname.indexOf("/api/") === 0 || /\/live$/.test(url.pathname) ||
      url.pathname === "/sw.js") {
    event.respondWith(fetch(request));
    return;
  }
  var accept = request.headers.get("Accept") || "";
  var page = request.mode === "navigate" || accept.indexOf("text/html") >= 0;
  if (!page && url.pathname.indexOf("/static/") !== 0) { event.respondWith(fetch(request)); return; }
  event.respondWith(fetch(request).then(function (response) { return keep(request, response); }, function (error) {
    return kept(request).then(function (copy) { if (copy) { return copy; } throw error; });
  }));
});
