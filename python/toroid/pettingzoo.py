"""PettingZoo adapter: every rule set as a two-player AEC environment with action masks.

    env = toroid.pettingzoo.env("hex-torus", width=6, height=6, render_mode="ansi")

The agents are "black_0" and "white_0" (PettingZoo's naming, as in its own Go). Each
observation is a dict of "observation" (the planes of `Game.observation` for that agent) and
"action_mask" (int8, ones for the legal actions of the agent to move; all zeros for the
other agent). The winner gets +1, the loser
-1, both 0 for a draw. In CTOR the agent to move may move twice in a row: always follow
`agent_selection`.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import PLANES, Game
from ._render import RENDER_MODES, after_move, check_render_mode, render

AGENTS = ["black_0", "white_0"]
COLORS = {"black_0": "black", "white_0": "white"}
AGENT_OF = {color: agent for agent, color in COLORS.items()}


def env(name, render_mode=None, **params):
    """A PettingZoo AEC environment of the rule set `name` with its parameters."""
    return ToroidAECEnv(name, render_mode=render_mode, **params)


class ToroidAECEnv(AECEnv):
    metadata = {"render_modes": RENDER_MODES, "name": "toroid_v0", "is_parallelizable": False}

    def __init__(self, name, render_mode=None, **params):
        super().__init__()
        check_render_mode(render_mode)
        self._name, self._params = name, params
        self.game = Game(name, **params)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"toroid_{name.replace('-', '_')}_v0"}
        self.possible_agents = AGENTS[:]
        shape = (PLANES, self.game.height, self.game.width)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self.game.num_actions,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(self.game.num_actions) for agent in AGENTS}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.game = Game(self._name, **self._params)
        self.agents = AGENTS[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = AGENT_OF[self.game.to_move()]

    def observe(self, agent):
        color = COLORS[agent]
        if color == self.game.to_move():
            mask = self.game.legal_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.game.observation(color), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.game.play(int(action))
        if self.game.is_over():
            winner = self.game.winner()
            for player in self.agents:
                won = COLORS[player] == winner
                self.rewards[player] = 0 if winner == "draw" else (1 if won else -1)
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            # Each agent then steps once more with None, the mover's opponent first.
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.agent_selection = AGENT_OF[self.game.to_move()]
        after_move(self.render_mode, self.game)

    def render(self):
        return render(self.render_mode, self.game)

    def close(self):
        pass
