"""The web companion's pages, by what they show (each a layer of web.app.Companion)."""
