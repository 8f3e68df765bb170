/**
 * Usage caps: {@link dev.baton.middleware.budget.Budget} caps the tokens and cost a run (its
 * sub-agents included) or an agent session may spend, and stops the run as aborted with a {@link
 * dev.baton.middleware.budget.BudgetExceededException}, or holds its tool calls for approval, which
 * a {@link dev.baton.middleware.budget.BudgetDecision} answers.
 *
 * <p><b>Experimental</b>, as Genkit's {@code exp} packages are: it may change in any release. Only
 * an instance built with {@code Baton.builder().experimental()} registers it by name ({@code
 * genkit-middleware-exp/budget}).
 */
@NullMarked
package dev.baton.middleware.budget;

import org.jspecify.annotations.NullMarked;
