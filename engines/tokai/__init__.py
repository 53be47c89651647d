"""Tokai Baron (東海男爵): a dice-driven rail-baron game on the Nagoya network. Data and map helpers only for now."""
