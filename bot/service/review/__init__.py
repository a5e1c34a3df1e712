"""The review of an analysed match, decision by decision (:mod:`bot.service.review.room`)."""
