"""Strategy discovery: the best response of a policy's weights to a field of policies
(:func:`fairysim.analysis.strategy.best_response.best_response`)."""
