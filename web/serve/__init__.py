"""Serving infrastructure of the web companion: connection guard, caching headers, the page
name cache, limits and the request middleware."""
