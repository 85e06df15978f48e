package io.github.tobyjamesclements.parsley;

import java.util.List;

/**
 * Stateless logic run on each delivered {@link Tick}. Same rules as {@link Handler}.
 */
@FunctionalInterface
public interface TickHandler {

    /**
     * Handles one tick.
     *
     * @param tick the delivered tick, never null
     * @return the emissions, never null
     */
    List<Emission> onTick(Tick tick);
}
