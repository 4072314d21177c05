"""OpenSpiel's AlphaZero (its JAX implementation and its own example's flags) on a toroid
game: registers toroid's games, then runs OpenSpiel's `examples/alpha_zero.py` main.

    target/az-venv/bin/python python/examples/alpha_zero.py \
        --game="toroid_hex_torus(width=4,height=4)" --nn_model=mlp --nn_width=64 \
        --actors=1 --evaluators=1 --max_simulations=20 --max_steps=10 --path=/tmp/az

The actors and evaluators are processes that OpenSpiel starts with `spawn`: each imports this
file again, so the registration at the top runs in them too before they load the game.
"""

from absl import app
from open_spiel.python.examples import alpha_zero as example
from open_spiel.python.utils import spawn

import toroid.openspiel

toroid.openspiel.register()

if __name__ == "__main__":
    with spawn.main_handler():
        app.run(example.main)
