"""Domain and persistence of Carte !. The pure modules (cards, rules, scoring) import no framework."""
