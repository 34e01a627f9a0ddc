// cards
